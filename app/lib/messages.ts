import {
  GOOGLE_SIGNED_IN,
  INVALID_EMAIL_TEXT,
  NEWSLETTER_CHECK_INBOX,
  NEWSLETTER_ALREADY_TEXT,
  NEWSLETTER_SUCCESS,
} from "#worker/services/texts.ts";
/**
 * Every user-facing text of the spec's error catalogue (section 8), word for word, in one place.
 * Dialogs and toasts read from here; tests assert against here.
 */
export const DIALOG_DEFAULTS = { confirmButtonText: "OK", denyButtonText: "No", cancelButtonText: "Cancel" } as const;

/** Success toasts last 1.5 seconds (spec section 9). */
export const TOAST_MS = 1500;

export const MSG = {
  login: {
    errorTitle: "Error",
    tryAgain: "Try again",
    successTitle: "Login successful",
    /** The brand is the request's SITE_NAME: `configOf(context.env).siteName` in an action, `useBrand()` in a component. */
    successText: (brand: string) => `Welcome to ${brand}!`,
  },
  register: {
    successTitle: "Registration Successful!",
    // The spec said "You can now login"; the new account is already signed in, so the sentence says that.
    successText: "Your account is ready, and you are signed in.",
    googleTitle: GOOGLE_SIGNED_IN.register.title,
    googleText: GOOGLE_SIGNED_IN.register.text,
  },
  google: { successTitle: GOOGLE_SIGNED_IN.login.title, successText: GOOGLE_SIGNED_IN.login.text },
  signOut: {
    successTitle: "Logged Out!",
    successText: "You have been signed out successfully.",
    errorTitle: "Error!",
  },
  newsletter: {
    empty: INVALID_EMAIL_TEXT,
    success: NEWSLETTER_SUCCESS,
    checkInbox: NEWSLETTER_CHECK_INBOX,
    already: NEWSLETTER_ALREADY_TEXT,
  },
  contact: {
    loginTitle: "Please Login First",
    loginText: "You need to be logged in to send a message.",
    successTitle: "Message Sent!",
    successText: "Thank you for reaching out! We will get back to you shortly.",
    errorTitle: "Error!",
    errorText: "Failed to send message. Please try again later.",
  },
  blog: {
    posted: "Blog Posted Successfully!",
    updated: "Blog Updated Successfully!",
    noChanges: "No Changes Made!",
    errorTitle: "Error!",
    imageUploadFailed: "Image upload failed",
    // Beyond the spec (drafts and scheduling).
    draftSaved: "Draft Saved!",
    scheduled: "Blog Scheduled!",
  },
  // Beyond the spec: leaving an editor with changes not saved to the post.
  leave: {
    title: "Leave this page?",
    text: "Your changes are not saved to the post yet. A copy stays on this device, and the post keeps its current words until you save.",
    button: "Leave",
  },
  save: {
    success: "Blog Saved Successfully",
    needLogin: "You must be logged in to save this blog",
    // Beyond the spec: a second save of the same post keeps the one entry and says so.
    already: "This blog is already in your saved list",
    removed: "Removed from your saved list",
    alreadyRemoved: "That blog was no longer in your saved list",
  },
  copyLink: "Link copied to clipboard!",
  delete: {
    doneTitle: "Deleted!",
    doneText: "It has been deleted for good.",
    userDeleted: "User deleted successfully!",
    madeAdmin: "User made admin successfully!",
  },
  profile: {
    created: "Profile Created Successfully!",
    createFailed: "Failed to create profile. Please try again!",
    allRequired: "All fields are required!",
    updated: "Profile updated successfully!",
    noBio: "No bio added yet",
    noDesignation: "No designation added yet",
    noBlogs: "You haven't written any blogs yet.",
  },
  feedback: {
    submitted: "Thank you for your feedback!",
    updated: "Feedback Updated Successfully!",
    updateFailed: "Error Updating Feedback",
    /** Beyond the spec: a review waits for an admin's approval. */
    pendingText: "Your feedback is pending approval: an admin will review it before it appears on the home page.",
  },
  /** Admin approval of reviews. */
  review: {
    approved: "Review approved: it is on the home page.",
    hidden: "Review hidden from the home page.",
    pending: "Review sent back to pending.",
    label: { pending: "Pending approval", approved: "Approved", hidden: "Hidden" },
  },
  author: {
    addedTitle: "Author Added",
    addedText: "Author added successfully!",
    updated: "Author Updated Successfully",
    imageErrorTitle: "Error Uploading Image",
    imageErrorText: "Please try again later.",
    updateFailed: "Error Updating Author",
    noChanges: "No Changes Made!",
  },
  /** Admin screens beyond the spec's catalogue (its own texts above are used wherever it has one). */
  admin: {
    featured: "Featured on the home page.",
    unfeatured: "No longer featured on the home page.",
    adminRemoved: "Admin rights removed.",
    actionFailedTitle: "Error!",
  },
  /** Ask-first actions: the words of the dialog with JavaScript and of the /confirm page without it. */
  confirm: {
    delete: { title: "Are you sure?", text: "You won't be able to revert this!", button: "Yes, delete it!" },
    /** Deleting an account: the text is replaced by what goes with it, with the counts (app/lib/holdings.ts). */
    "delete-user": { title: "Are you sure?", text: "You won't be able to revert this!", button: "Yes, delete it!" },
    "make-admin": {
      title: "Are you sure?",
      text: "This user will be able to manage every blog, user, review and author.",
      button: "Yes, make admin",
    },
    "remove-admin": {
      title: "Are you sure?",
      text: "This user will lose access to the admin dashboard.",
      button: "Yes, remove admin",
    },
    "sign-out": { title: "Are you sure?", text: "You will be logged out!", button: "Yes, Logout" },
    "remove-subscriber": {
      title: "Remove this subscriber?",
      text: "The address leaves the newsletter list and gets no more mail from it, not even a message already waiting to go. To come back they subscribe again.",
      button: "Yes, remove",
    },
  },
  /** Account settings (/settings) and passkeys: beyond the spec. */
  settings: {
    newsletterSubscribed: "Subscribed to the newsletter",
    newsletterUnsubscribed: "Unsubscribed from the newsletter",
    notificationsSaved: "Notification email choices saved",
    passwordChanged: "Password changed",
    passwordChangedText: "Every other device was signed out.",
    emailLinkSent: "Check your new inbox",
    emailChanged: "Email address changed",
    sessionEnded: "Signed out that session",
    othersEnded: "Signed out everywhere else",
    passkeyAdded: "Passkey added",
    passkeyRemoved: "Passkey removed",
    passkeyFailed: "Passkey not added",
    accountDeleted: "Account deleted",
    accountDeletedText: "Your account and everything in it are gone. Thank you for writing with us.",
    errorTitle: "Error",
    passkeyCancelled: "The passkey prompt was closed before it finished. Please try again.",
    passkeyUnsupported: "This browser cannot use passkeys. Sign in with your email and password instead.",
    passkeySignInFailed: "Passkey sign-in failed",
  },
  /** Google sign-in problems: the spec only logs them; the product says what happened instead. */
  googleErrors: {
    title: "Google sign-in failed",
    notConfigured: "Google sign-in is not available on this site yet. Please sign in with your email and password.",
    popupClosed: "The Google sign-in window was closed before you finished. Please try again.",
    popupBlocked: "Your browser blocked the Google sign-in window, so Google sign-in continues in this tab.",
    network: "We could not reach Google. Please check your connection and try again.",
    generic: "Google sign-in did not work. Please try again.",
  },
  accounts: {
    facebookUnavailable: "Facebook sign-in is not available",
  },
} as const;

/**
 * The one table from an error's stable code to the words a page shows for it, where the spec's wording
 * differs from the service's own sentence (handleForm reads it; any other code shows the service's words).
 */
export const ERROR_WORDS: Readonly<Record<string, string>> = {
  "profile-incomplete": MSG.profile.allRequired,
  "profile-exists": MSG.profile.createFailed,
};
